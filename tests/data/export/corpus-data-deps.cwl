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
          "id": "#main/A1.stdout",
          "type": "File",
          "outputSource": "#main/A1/stdout"
        },
        {
          "id": "#main/A2.stdout",
          "type": "File",
          "outputSource": "#main/A2/stdout"
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
        },
        {
          "id": "#main/D.stdout",
          "type": "File",
          "outputSource": "#main/D/stdout"
        }
      ],
      "steps": [
        {
          "id": "#main/A1",
          "run": "#A1.tool",
          "in": [],
          "out": [
            "#main/A1/out.txt",
            "#main/A1/stdout"
          ]
        },
        {
          "id": "#main/A2",
          "run": "#A2.tool",
          "in": [],
          "out": [
            "#main/A2/stdout"
          ]
        },
        {
          "id": "#main/B",
          "run": "#B.tool",
          "in": [
            {
              "id": "#main/B/inFile",
              "default": [
                "--inFile"
              ]
            },
            {
              "id": "#main/B/inFile-1",
              "source": [
                "#main/A1/out.txt"
              ],
              "linkMerge": "merge_flattened"
            }
          ],
          "out": [
            "#main/B/stdout"
          ]
        },
        {
          "id": "#main/C",
          "run": "#C.tool",
          "in": [
            {
              "id": "#main/C/after-A2",
              "source": "#main/A2/stdout"
            }
          ],
          "out": [
            "#main/C/stdout"
          ]
        },
        {
          "id": "#main/D",
          "run": "#D.tool",
          "in": [
            {
              "id": "#main/D/after-C",
              "source": "#main/C/stdout"
            },
            {
              "id": "#main/D/after-A2",
              "source": "#main/A2/stdout"
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
      "id": "#A1.tool",
      "label": "Pkg0",
      "baseCommand": [
        "echo",
        "Pkg0"
      ],
      "inputs": [],
      "outputs": [
        {
          "id": "#A1.tool/out.txt",
          "type": "File",
          "outputBinding": {
            "glob": "out.txt"
          }
        },
        {
          "id": "#A1.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "A1.stdout"
    },
    {
      "class": "CommandLineTool",
      "id": "#A2.tool",
      "label": "Pkg1",
      "baseCommand": [
        "echo",
        "Pkg1"
      ],
      "inputs": [],
      "outputs": [
        {
          "id": "#A2.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "A2.stdout"
    },
    {
      "class": "CommandLineTool",
      "id": "#B.tool",
      "label": "Pkg2",
      "baseCommand": [
        "echo",
        "Pkg2"
      ],
      "inputs": [
        {
          "id": "#B.tool/inFile",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#B.tool/inFile-1",
          "type": {
            "type": "array",
            "items": "File"
          },
          "inputBinding": {
            "position": 2
          }
        }
      ],
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
      "label": "Pkg3",
      "baseCommand": [
        "echo",
        "Pkg3"
      ],
      "inputs": [
        {
          "id": "#C.tool/after-A2",
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
    },
    {
      "class": "CommandLineTool",
      "id": "#D.tool",
      "label": "Pkg4",
      "baseCommand": [
        "echo",
        "Pkg4"
      ],
      "inputs": [
        {
          "id": "#D.tool/after-C",
          "type": "File"
        },
        {
          "id": "#D.tool/after-A2",
          "type": "File"
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
