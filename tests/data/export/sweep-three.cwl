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
              "id": "#main/S/fixed",
              "default": [
                "0"
              ]
            },
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
                  "--b"
                ],
                []
              ]
            },
            {
              "id": "#main/S/c",
              "default": [
                [
                  "--c",
                  "u"
                ],
                [
                  "--c",
                  "v"
                ],
                [
                  "--c",
                  "w"
                ]
              ]
            }
          ],
          "out": [
            "#main/S/stdout"
          ],
          "scatter": [
            "#main/S/a",
            "#main/S/b",
            "#main/S/c"
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
          "id": "#S.tool/fixed",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#S.tool/a",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 2
          }
        },
        {
          "id": "#S.tool/b",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 3
          }
        },
        {
          "id": "#S.tool/c",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 4
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
