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
        }
      ],
      "steps": [
        {
          "id": "#main/A",
          "run": "#A.tool",
          "in": [
            {
              "id": "#main/A/s",
              "default": [
                "--s",
                "a & b < c > d \" e ' f"
              ]
            },
            {
              "id": "#main/A/ctl",
              "default": [
                "--ctl",
                "bell\u0007 tab\t cr\r"
              ]
            },
            {
              "id": "#main/A/dashes",
              "default": [
                "--dashes",
                "-- comment -- breaker -"
              ]
            }
          ],
          "out": [
            "#main/A/x_y_z_.txt",
            "#main/A/stdout"
          ]
        },
        {
          "id": "#main/B",
          "run": "#B.tool",
          "in": [
            {
              "id": "#main/B/s",
              "default": [
                "--s"
              ]
            },
            {
              "id": "#main/B/s-1",
              "source": [
                "#main/A/x_y_z_.txt"
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
          "id": "#A.tool/s",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#A.tool/ctl",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 2
          }
        },
        {
          "id": "#A.tool/dashes",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 3
          }
        }
      ],
      "outputs": [
        {
          "id": "#A.tool/x_y_z_.txt",
          "type": "File",
          "outputBinding": {
            "glob": "x&y<z>.txt"
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
          "id": "#B.tool/s",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#B.tool/s-1",
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
