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
          "id": "#main/C.res.txt",
          "type": "File",
          "outputSource": "#main/C/res.txt"
        },
        {
          "id": "#main/C.stdout",
          "type": "File",
          "outputSource": "#main/C/stdout"
        }
      ],
      "steps": [
        {
          "id": "#main/C",
          "run": "#C.tool",
          "in": [
            {
              "id": "#main/C/method",
              "default": [
                "--method",
                "fast"
              ]
            },
            {
              "id": "#main/C/level",
              "default": [
                "--level",
                "high"
              ]
            }
          ],
          "out": [
            "#main/C/res.txt",
            "#main/C/stdout"
          ]
        }
      ]
    },
    {
      "class": "CommandLineTool",
      "id": "#C.tool",
      "label": "Solver.Run",
      "baseCommand": [
        "echo",
        "Solver.Run"
      ],
      "inputs": [
        {
          "id": "#C.tool/method",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#C.tool/level",
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
          "id": "#C.tool/res.txt",
          "type": "File",
          "outputBinding": {
            "glob": "res.txt"
          }
        },
        {
          "id": "#C.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "C.stdout"
    }
  ]
}
