{
  "cwlVersion": "v1.2",
  "$graph": [
    {
      "class": "Workflow",
      "id": "#main",
      "label": "CWL rules",
      "doc": "What the CWL export does with each rule",
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
          "id": "#main/data",
          "type": "File"
        }
      ],
      "outputs": [
        {
          "id": "#main/Make.out_file_1.txt",
          "type": "File",
          "outputSource": "#main/Make/out_file_1.txt"
        },
        {
          "id": "#main/Make.b.txt",
          "type": "File",
          "outputSource": "#main/Make/b.txt"
        },
        {
          "id": "#main/Make.stdout",
          "type": "File",
          "outputSource": "#main/Make/stdout"
        },
        {
          "id": "#main/Small.stdout",
          "type": "File",
          "outputSource": "#main/Small/stdout"
        },
        {
          "id": "#main/Join.stdout",
          "type": "File",
          "outputSource": "#main/Join/stdout"
        }
      ],
      "steps": [
        {
          "id": "#main/Make",
          "run": "#Make.tool",
          "in": [
            {
              "id": "#main/Make/input",
              "source": [
                "#main/data"
              ],
              "linkMerge": "merge_flattened"
            }
          ],
          "out": [
            "#main/Make/out_file_1.txt",
            "#main/Make/b.txt",
            "#main/Make/stdout"
          ]
        },
        {
          "id": "#main/Small",
          "run": "#Small.tool",
          "in": [
            {
              "id": "#main/Small/verbose",
              "default": [
                "false"
              ]
            }
          ],
          "out": [
            "#main/Small/stdout"
          ]
        },
        {
          "id": "#main/Join",
          "run": "#Join.tool",
          "in": [
            {
              "id": "#main/Join/parts",
              "source": [
                "#main/Make/out_file_1.txt",
                "#main/Make/b.txt",
                "#main/data"
              ],
              "linkMerge": "merge_flattened"
            },
            {
              "id": "#main/Join/verbose",
              "default": [
                "true"
              ]
            }
          ],
          "out": [
            "#main/Join/stdout"
          ]
        }
      ]
    },
    {
      "class": "CommandLineTool",
      "id": "#Make.tool",
      "label": "Rules.Make",
      "baseCommand": [
        "sh",
        "-c",
        "cp \"$0\" 'out file#1.txt'; cp \"$0\" b.txt"
      ],
      "inputs": [
        {
          "id": "#Make.tool/input",
          "type": {
            "type": "array",
            "items": "File"
          },
          "inputBinding": {
            "position": 1
          }
        }
      ],
      "outputs": [
        {
          "id": "#Make.tool/out_file_1.txt",
          "type": "File",
          "outputBinding": {
            "glob": "out file#1.txt"
          }
        },
        {
          "id": "#Make.tool/b.txt",
          "type": "File",
          "outputBinding": {
            "glob": "b.txt"
          }
        },
        {
          "id": "#Make.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "Make.stdout",
      "hints": [
        {
          "class": "ResourceRequirement",
          "ramMin": 1
        }
      ]
    },
    {
      "class": "CommandLineTool",
      "id": "#Small.tool",
      "label": "Rules.Join",
      "baseCommand": [
        "cat"
      ],
      "inputs": [
        {
          "id": "#Small.tool/verbose",
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
          "id": "#Small.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "Small.stdout",
      "hints": [
        {
          "class": "ResourceRequirement",
          "coresMin": 3
        }
      ]
    },
    {
      "class": "CommandLineTool",
      "id": "#Join.tool",
      "label": "Rules.Join",
      "baseCommand": [
        "cat"
      ],
      "inputs": [
        {
          "id": "#Join.tool/parts",
          "type": {
            "type": "array",
            "items": "File"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#Join.tool/verbose",
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
          "id": "#Join.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "Join.stdout",
      "hints": [
        {
          "class": "ResourceRequirement",
          "coresMin": 3,
          "ramMin": 2
        }
      ]
    }
  ]
}
