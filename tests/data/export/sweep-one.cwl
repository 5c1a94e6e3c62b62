{
  "cwlVersion": "v1.2",
  "$graph": [
    {
      "class": "Workflow",
      "id": "#main",
      "requirements": [
        {
          "class": "ScatterFeatureRequirement"
        },
        {
          "class": "MultipleInputFeatureRequirement"
        }
      ],
      "inputs": [],
      "outputs": [
        {
          "id": "#main/S.stdout",
          "type": {
            "type": "array",
            "items": "File"
          },
          "outputSource": "#main/S/stdout"
        }
      ],
      "steps": [
        {
          "id": "#main/S",
          "run": "#S.tool",
          "in": [
            {
              "id": "#main/S/n",
              "default": [
                [
                  "10"
                ],
                [
                  "20"
                ],
                [
                  "30"
                ]
              ]
            },
            {
              "id": "#main/S/fixed",
              "default": [
                "--fixed",
                "f"
              ]
            }
          ],
          "out": [
            "#main/S/stdout"
          ],
          "scatter": [
            "#main/S/n"
          ],
          "scatterMethod": "flat_crossproduct"
        }
      ]
    },
    {
      "class": "CommandLineTool",
      "id": "#S.tool",
      "label": "P.S",
      "baseCommand": [
        "echo",
        "P.S"
      ],
      "inputs": [
        {
          "id": "#S.tool/n",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#S.tool/fixed",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 2
          }
        }
      ],
      "outputs": [
        {
          "id": "#S.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "S.stdout"
    }
  ]
}
