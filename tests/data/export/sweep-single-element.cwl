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
          "id": "#main/S.stdout",
          "type": "File",
          "outputSource": "#main/S/stdout"
        },
        {
          "id": "#main/T.stdout",
          "type": "File",
          "outputSource": "#main/T/stdout"
        }
      ],
      "steps": [
        {
          "id": "#main/S",
          "run": "#S.tool",
          "in": [
            {
              "id": "#main/S/a",
              "default": [
                "--a",
                "7"
              ]
            }
          ],
          "out": [
            "#main/S/o",
            "#main/S/stdout"
          ]
        },
        {
          "id": "#main/T",
          "run": "#T.tool",
          "in": [
            {
              "id": "#main/T/x",
              "default": [
                "--x"
              ]
            },
            {
              "id": "#main/T/x-1",
              "source": [
                "#main/S/o"
              ],
              "linkMerge": "merge_flattened"
            }
          ],
          "out": [
            "#main/T/stdout"
          ]
        }
      ]
    },
    {
      "class": "CommandLineTool",
      "id": "#S.tool",
      "label": "P.S",
      "baseCommand": [
        "echo",
        "P.S"
      ],
      "inputs": [
        {
          "id": "#S.tool/a",
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
          "id": "#S.tool/o",
          "type": "File",
          "outputBinding": {
            "glob": "o"
          }
        },
        {
          "id": "#S.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "S.stdout"
    },
    {
      "class": "CommandLineTool",
      "id": "#T.tool",
      "label": "P.T",
      "baseCommand": [
        "echo",
        "P.T"
      ],
      "inputs": [
        {
          "id": "#T.tool/x",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#T.tool/x-1",
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
          "id": "#T.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "T.stdout"
    }
  ]
}
