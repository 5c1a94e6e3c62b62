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
          "id": "#main/grid",
          "type": "File"
        }
      ],
      "outputs": [
        {
          "id": "#main/L.stdout",
          "type": "File",
          "outputSource": "#main/L/stdout"
        }
      ],
      "steps": [
        {
          "id": "#main/L",
          "run": "#L.tool",
          "in": [
            {
              "id": "#main/L/ints",
              "default": [
                "1",
                "2",
                "3"
              ]
            },
            {
              "id": "#main/L/mixed",
              "default": [
                "--mixed",
                "a",
                "1",
                "2.5",
                "true",
                "c"
              ]
            },
            {
              "id": "#main/L/nested",
              "default": [
                "--nested",
                "1",
                "2",
                "x"
              ]
            },
            {
              "id": "#main/L/empty",
              "default": [
                "--empty"
              ]
            },
            {
              "id": "#main/L/files",
              "default": [
                "-f"
              ]
            },
            {
              "id": "#main/L/files-1",
              "source": [
                "#main/grid"
              ],
              "linkMerge": "merge_flattened"
            },
            {
              "id": "#main/L/files-2",
              "default": [
                "b"
              ]
            }
          ],
          "out": [
            "#main/L/stdout"
          ]
        }
      ]
    },
    {
      "class": "CommandLineTool",
      "id": "#L.tool",
      "label": "Lists.Take",
      "baseCommand": [
        "echo",
        "Lists.Take"
      ],
      "inputs": [
        {
          "id": "#L.tool/ints",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#L.tool/mixed",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 2
          }
        },
        {
          "id": "#L.tool/nested",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 3
          }
        },
        {
          "id": "#L.tool/empty",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 4
          }
        },
        {
          "id": "#L.tool/files",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 5
          }
        },
        {
          "id": "#L.tool/files-1",
          "type": {
            "type": "array",
            "items": "File"
          },
          "inputBinding": {
            "position": 6
          }
        },
        {
          "id": "#L.tool/files-2",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 7
          }
        }
      ],
      "outputs": [
        {
          "id": "#L.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "L.stdout"
    }
  ]
}
