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
          "type": {
            "type": "array",
            "items": "File"
          },
          "outputSource": "#main/C/stdout"
        }
      ],
      "steps": [
        {
          "id": "#main/A",
          "run": "#A.tool",
          "in": [],
          "out": [
            "#main/A/a",
            "#main/A/stdout"
          ]
        },
        {
          "id": "#main/B",
          "run": "#B.tool",
          "in": [],
          "out": [
            "#main/B/b",
            "#main/B/stdout"
          ]
        },
        {
          "id": "#main/C",
          "run": "#C.tool",
          "in": [
            {
              "id": "#main/C/input",
              "default": [
                "--in"
              ]
            },
            {
              "id": "#main/C/input-1",
              "source": [
                "#main/A/a",
                "#main/B/b"
              ],
              "linkMerge": "merge_nested"
            }
          ],
          "out": [
            "#main/C/stdout"
          ],
          "scatter": [
            "#main/C/input-1"
          ],
          "scatterMethod": "flat_crossproduct"
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
          "id": "#A.tool/a",
          "type": "File",
          "outputBinding": {
            "glob": "a"
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
      "inputs": [],
      "outputs": [
        {
          "id": "#B.tool/b",
          "type": "File",
          "outputBinding": {
            "glob": "b"
          }
        },
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
          "id": "#C.tool/input",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#C.tool/input-1",
          "type": "File",
          "inputBinding": {
            "position": 2
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
