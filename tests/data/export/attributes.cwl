{
  "cwlVersion": "v1.2",
  "$graph": [
    {
      "class": "Workflow",
      "id": "#main",
      "label": "attributes",
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
        }
      ],
      "steps": [
        {
          "id": "#main/A",
          "run": "#A.tool",
          "in": [
            {
              "id": "#main/A/x",
              "default": [
                "--x",
                "1"
              ]
            }
          ],
          "out": [
            "#main/A/o",
            "#main/A/stdout"
          ]
        },
        {
          "id": "#main/B",
          "run": "#B.tool",
          "in": [
            {
              "id": "#main/B/y",
              "default": [
                "--y"
              ]
            },
            {
              "id": "#main/B/y-1",
              "source": [
                "#main/A/o"
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
          "id": "#A.tool/x",
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
          "id": "#A.tool/o",
          "type": "File",
          "outputBinding": {
            "glob": "o"
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
          "id": "#B.tool/y",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#B.tool/y-1",
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
    }
  ]
}
