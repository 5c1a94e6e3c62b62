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
        },
        {
          "id": "#main/D.stdout",
          "type": "File",
          "outputSource": "#main/D/stdout"
        }
      ],
      "steps": [
        {
          "id": "#main/A",
          "run": "#A.tool",
          "in": [],
          "out": [
            "#main/A/a",
            "#main/A/B.outs__name__",
            "#main/A/stdout"
          ]
        },
        {
          "id": "#main/B",
          "run": "#B.tool",
          "in": [],
          "out": [
            "#main/B/b",
            "#main/B/name",
            "#main/B/stdout"
          ]
        },
        {
          "id": "#main/C",
          "run": "#C.tool",
          "in": [],
          "out": [
            "#main/C/c",
            "#main/C/stdout"
          ]
        },
        {
          "id": "#main/D",
          "run": "#D.tool",
          "in": [
            {
              "id": "#main/D/direct",
              "source": [
                "#main/A/a"
              ],
              "linkMerge": "merge_flattened"
            },
            {
              "id": "#main/D/listed",
              "default": [
                "--listed"
              ]
            },
            {
              "id": "#main/D/listed-1",
              "source": [
                "#main/A/a",
                "#main/B/b"
              ],
              "linkMerge": "merge_flattened"
            },
            {
              "id": "#main/D/nested",
              "default": [
                "--nested"
              ]
            },
            {
              "id": "#main/D/nested-1",
              "source": [
                "#main/C/c"
              ],
              "linkMerge": "merge_flattened"
            },
            {
              "id": "#main/D/indexed",
              "default": [
                "--indexed"
              ]
            },
            {
              "id": "#main/D/indexed-1",
              "source": [
                "#main/A/B.outs__name__"
              ],
              "linkMerge": "merge_flattened"
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
          "id": "#A.tool/B.outs__name__",
          "type": "File",
          "outputBinding": {
            "glob": "B.outs[\"name\"]"
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
          "id": "#B.tool/name",
          "type": "File",
          "outputBinding": {
            "glob": "name"
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
      "inputs": [],
      "outputs": [
        {
          "id": "#C.tool/c",
          "type": "File",
          "outputBinding": {
            "glob": "c"
          }
        },
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
      "label": "P.D",
      "baseCommand": [
        "echo",
        "P.D"
      ],
      "inputs": [
        {
          "id": "#D.tool/direct",
          "type": {
            "type": "array",
            "items": "File"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#D.tool/listed",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 2
          }
        },
        {
          "id": "#D.tool/listed-1",
          "type": {
            "type": "array",
            "items": "File"
          },
          "inputBinding": {
            "position": 3
          }
        },
        {
          "id": "#D.tool/nested",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 4
          }
        },
        {
          "id": "#D.tool/nested-1",
          "type": {
            "type": "array",
            "items": "File"
          },
          "inputBinding": {
            "position": 5
          }
        },
        {
          "id": "#D.tool/indexed",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 6
          }
        },
        {
          "id": "#D.tool/indexed-1",
          "type": {
            "type": "array",
            "items": "File"
          },
          "inputBinding": {
            "position": 7
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
