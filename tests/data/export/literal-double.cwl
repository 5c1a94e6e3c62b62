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
          "id": "#main/D.stdout",
          "type": "File",
          "outputSource": "#main/D/stdout"
        }
      ],
      "steps": [
        {
          "id": "#main/D",
          "run": "#D.tool",
          "in": [
            {
              "id": "#main/D/a",
              "default": [
                "--a",
                "1.5"
              ]
            },
            {
              "id": "#main/D/b",
              "default": [
                "--b",
                ".5"
              ]
            },
            {
              "id": "#main/D/c",
              "default": [
                "--c",
                "1e5"
              ]
            },
            {
              "id": "#main/D/d",
              "default": [
                "--d",
                "1.5e-3"
              ]
            },
            {
              "id": "#main/D/e",
              "default": [
                "--e",
                "-2."
              ]
            },
            {
              "id": "#main/D/f",
              "default": [
                "--f",
                "5.e-14"
              ]
            }
          ],
          "out": [
            "#main/D/stdout"
          ]
        }
      ]
    },
    {
      "class": "CommandLineTool",
      "id": "#D.tool",
      "label": "Math.Doubles",
      "baseCommand": [
        "echo",
        "Math.Doubles"
      ],
      "inputs": [
        {
          "id": "#D.tool/a",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#D.tool/b",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 2
          }
        },
        {
          "id": "#D.tool/c",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 3
          }
        },
        {
          "id": "#D.tool/d",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 4
          }
        },
        {
          "id": "#D.tool/e",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 5
          }
        },
        {
          "id": "#D.tool/f",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 6
          }
        }
      ],
      "outputs": [
        {
          "id": "#D.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "D.stdout"
    }
  ]
}
