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
              "id": "#main/S/a",
              "default": [
                [
                  "--a",
                  "1"
                ],
                [
                  "--a",
                  "2"
                ]
              ]
            },
            {
              "id": "#main/S/b",
              "default": [
                [
                  "--b",
                  "x"
                ],
                [
                  "--b",
                  "y"
                ]
              ]
            }
          ],
          "out": [
            "#main/S/stdout"
          ],
          "scatter": [
            "#main/S/a",
            "#main/S/b"
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
          "id": "#S.tool/a",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#S.tool/b",
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
