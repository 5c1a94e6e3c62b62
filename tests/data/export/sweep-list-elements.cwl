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
              "id": "#main/S/shape",
              "default": [
                [
                  "--shape",
                  "1",
                  "2"
                ],
                [
                  "--shape",
                  "3",
                  "4",
                  "5"
                ]
              ]
            }
          ],
          "out": [
            "#main/S/stdout"
          ],
          "scatter": [
            "#main/S/shape"
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
          "id": "#S.tool/shape",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
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
