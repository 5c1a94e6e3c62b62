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
            "#main/A/r",
            "#main/A/s",
            "#main/A/stdout"
          ]
        },
        {
          "id": "#main/B",
          "run": "#B.tool",
          "in": [
            {
              "id": "#main/B/x",
              "default": [
                "--x"
              ]
            },
            {
              "id": "#main/B/x-1",
              "source": [
                "#main/A/r"
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
              "id": "#main/C/y",
              "default": [
                "--y"
              ]
            },
            {
              "id": "#main/C/y-1",
              "source": [
                "#main/A/r"
              ],
              "linkMerge": "merge_flattened"
            },
            {
              "id": "#main/C/z",
              "default": [
                "--z"
              ]
            },
            {
              "id": "#main/C/z-1",
              "source": [
                "#main/A/s"
              ],
              "linkMerge": "merge_flattened"
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
          "id": "#A.tool/r",
          "type": "File",
          "outputBinding": {
            "glob": "r"
          }
        },
        {
          "id": "#A.tool/s",
          "type": "File",
          "outputBinding": {
            "glob": "s"
          }
        },
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
      "inputs": [
        {
          "id": "#B.tool/x",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#B.tool/x-1",
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
      "label": "P.C",
      "baseCommand": [
        "echo",
        "P.C"
      ],
      "inputs": [
        {
          "id": "#C.tool/y",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#C.tool/y-1",
          "type": {
            "type": "array",
            "items": "File"
          },
          "inputBinding": {
            "position": 2
          }
        },
        {
          "id": "#C.tool/z",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 3
          }
        },
        {
          "id": "#C.tool/z-1",
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
          "id": "#C.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "C.stdout"
    }
  ]
}
