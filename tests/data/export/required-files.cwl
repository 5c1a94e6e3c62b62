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
      "inputs": [
        {
          "id": "#main/input",
          "type": "File"
        },
        {
          "id": "#main/config",
          "type": "File"
        },
        {
          "id": "#main/unused",
          "type": "File"
        }
      ],
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
        }
      ],
      "steps": [
        {
          "id": "#main/A",
          "run": "#A.tool",
          "in": [
            {
              "id": "#main/A/data",
              "default": [
                "--data"
              ]
            },
            {
              "id": "#main/A/data-1",
              "source": [
                "#main/input"
              ],
              "linkMerge": "merge_flattened"
            },
            {
              "id": "#main/A/settings",
              "default": [
                "--settings"
              ]
            },
            {
              "id": "#main/A/settings-1",
              "source": [
                "#main/config"
              ],
              "linkMerge": "merge_flattened"
            }
          ],
          "out": [
            "#main/A/r",
            "#main/A/stdout"
          ]
        },
        {
          "id": "#main/B",
          "run": "#B.tool",
          "in": [
            {
              "id": "#main/B/again",
              "default": [
                "--again"
              ]
            },
            {
              "id": "#main/B/again-1",
              "source": [
                "#main/input"
              ],
              "linkMerge": "merge_flattened"
            },
            {
              "id": "#main/B/result",
              "default": [
                "--result"
              ]
            },
            {
              "id": "#main/B/result-1",
              "source": [
                "#main/A/r"
              ],
              "linkMerge": "merge_flattened"
            }
          ],
          "out": [
            "#main/B/stdout"
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
      "inputs": [
        {
          "id": "#A.tool/data",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#A.tool/data-1",
          "type": {
            "type": "array",
            "items": "File"
          },
          "inputBinding": {
            "position": 2
          }
        },
        {
          "id": "#A.tool/settings",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 3
          }
        },
        {
          "id": "#A.tool/settings-1",
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
          "id": "#A.tool/r",
          "type": "File",
          "outputBinding": {
            "glob": "r"
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
          "id": "#B.tool/again",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#B.tool/again-1",
          "type": {
            "type": "array",
            "items": "File"
          },
          "inputBinding": {
            "position": 2
          }
        },
        {
          "id": "#B.tool/result",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 3
          }
        },
        {
          "id": "#B.tool/result-1",
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
          "id": "#B.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "B.stdout"
    }
  ]
}
