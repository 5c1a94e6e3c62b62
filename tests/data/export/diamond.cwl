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
          "id": "#main/Top.l",
          "type": "File",
          "outputSource": "#main/Top/l"
        },
        {
          "id": "#main/Top.r",
          "type": "File",
          "outputSource": "#main/Top/r"
        },
        {
          "id": "#main/Top.stdout",
          "type": "File",
          "outputSource": "#main/Top/stdout"
        },
        {
          "id": "#main/Left.stdout",
          "type": "File",
          "outputSource": "#main/Left/stdout"
        },
        {
          "id": "#main/Right.stdout",
          "type": "File",
          "outputSource": "#main/Right/stdout"
        },
        {
          "id": "#main/Bottom.stdout",
          "type": "File",
          "outputSource": "#main/Bottom/stdout"
        }
      ],
      "steps": [
        {
          "id": "#main/Top",
          "run": "#Top.tool",
          "in": [],
          "out": [
            "#main/Top/l",
            "#main/Top/r",
            "#main/Top/stdout"
          ]
        },
        {
          "id": "#main/Left",
          "run": "#Left.tool",
          "in": [
            {
              "id": "#main/Left/a",
              "default": [
                "--a"
              ]
            },
            {
              "id": "#main/Left/a-1",
              "source": [
                "#main/Top/l"
              ],
              "linkMerge": "merge_flattened"
            }
          ],
          "out": [
            "#main/Left/o",
            "#main/Left/stdout"
          ]
        },
        {
          "id": "#main/Right",
          "run": "#Right.tool",
          "in": [
            {
              "id": "#main/Right/a",
              "default": [
                "--a"
              ]
            },
            {
              "id": "#main/Right/a-1",
              "source": [
                "#main/Top/r"
              ],
              "linkMerge": "merge_flattened"
            }
          ],
          "out": [
            "#main/Right/o",
            "#main/Right/stdout"
          ]
        },
        {
          "id": "#main/Bottom",
          "run": "#Bottom.tool",
          "in": [
            {
              "id": "#main/Bottom/l",
              "default": [
                "--l"
              ]
            },
            {
              "id": "#main/Bottom/l-1",
              "source": [
                "#main/Left/o"
              ],
              "linkMerge": "merge_flattened"
            },
            {
              "id": "#main/Bottom/r",
              "default": [
                "--r"
              ]
            },
            {
              "id": "#main/Bottom/r-1",
              "source": [
                "#main/Right/o"
              ],
              "linkMerge": "merge_flattened"
            }
          ],
          "out": [
            "#main/Bottom/stdout"
          ]
        }
      ]
    },
    {
      "class": "CommandLineTool",
      "id": "#Top.tool",
      "label": "P.Top",
      "baseCommand": [
        "echo",
        "P.Top"
      ],
      "inputs": [],
      "outputs": [
        {
          "id": "#Top.tool/l",
          "type": "File",
          "outputBinding": {
            "glob": "left.txt"
          }
        },
        {
          "id": "#Top.tool/r",
          "type": "File",
          "outputBinding": {
            "glob": "r"
          }
        },
        {
          "id": "#Top.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "Top.stdout"
    },
    {
      "class": "CommandLineTool",
      "id": "#Left.tool",
      "label": "P.L",
      "baseCommand": [
        "echo",
        "P.L"
      ],
      "inputs": [
        {
          "id": "#Left.tool/a",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#Left.tool/a-1",
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
          "id": "#Left.tool/o",
          "type": "File",
          "outputBinding": {
            "glob": "o"
          }
        },
        {
          "id": "#Left.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "Left.stdout"
    },
    {
      "class": "CommandLineTool",
      "id": "#Right.tool",
      "label": "P.R",
      "baseCommand": [
        "echo",
        "P.R"
      ],
      "inputs": [
        {
          "id": "#Right.tool/a",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#Right.tool/a-1",
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
          "id": "#Right.tool/o",
          "type": "File",
          "outputBinding": {
            "glob": "o"
          }
        },
        {
          "id": "#Right.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "Right.stdout"
    },
    {
      "class": "CommandLineTool",
      "id": "#Bottom.tool",
      "label": "P.B",
      "baseCommand": [
        "echo",
        "P.B"
      ],
      "inputs": [
        {
          "id": "#Bottom.tool/l",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#Bottom.tool/l-1",
          "type": {
            "type": "array",
            "items": "File"
          },
          "inputBinding": {
            "position": 2
          }
        },
        {
          "id": "#Bottom.tool/r",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 3
          }
        },
        {
          "id": "#Bottom.tool/r-1",
          "type": {
            "type": "array",
            "items": "File"
          },
          "inputBinding": {
            "position": 4
          }
        }
      ],
      "outputs": [
        {
          "id": "#Bottom.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "Bottom.stdout"
    }
  ]
}
