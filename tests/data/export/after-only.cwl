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
          "id": "#main/A.stdout",
          "type": "File",
          "outputSource": "#main/A/stdout"
        },
        {
          "id": "#main/B.stdout",
          "type": "File",
          "outputSource": "#main/B/stdout"
        },
        {
          "id": "#main/C.stdout",
          "type": "File",
          "outputSource": "#main/C/stdout"
        }
      ],
      "steps": [
        {
          "id": "#main/A",
          "run": "#A.tool",
          "in": [],
          "out": [
            "#main/A/stdout"
          ]
        },
        {
          "id": "#main/B",
          "run": "#B.tool",
          "in": [],
          "out": [
            "#main/B/stdout"
          ]
        },
        {
          "id": "#main/C",
          "run": "#C.tool",
          "in": [
            {
              "id": "#main/C/x",
              "default": [
                "--x",
                "1"
              ]
            },
            {
              "id": "#main/C/after-A",
              "source": "#main/A/stdout"
            },
            {
              "id": "#main/C/after-B",
              "source": "#main/B/stdout"
            }
          ],
          "out": [
            "#main/C/stdout"
          ]
        }
      ]
    },
    {
      "class": "CommandLineTool",
      "id": "#A.tool",
      "label": "P.A",
      "baseCommand": [
        "echo",
        "P.A"
      ],
      "inputs": [],
      "outputs": [
        {
          "id": "#A.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "A.stdout"
    },
    {
      "class": "CommandLineTool",
      "id": "#B.tool",
      "label": "P.B",
      "baseCommand": [
        "echo",
        "P.B"
      ],
      "inputs": [],
      "outputs": [
        {
          "id": "#B.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "B.stdout"
    },
    {
      "class": "CommandLineTool",
      "id": "#C.tool",
      "label": "P.C",
      "baseCommand": [
        "echo",
        "P.C"
      ],
      "inputs": [
        {
          "id": "#C.tool/x",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#C.tool/after-A",
          "type": "File"
        },
        {
          "id": "#C.tool/after-B",
          "type": "File"
        }
      ],
      "outputs": [
        {
          "id": "#C.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "C.stdout"
    }
  ]
}
