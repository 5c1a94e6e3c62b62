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
          "id": "#main/First.stdout",
          "type": "File",
          "outputSource": "#main/First/stdout"
        },
        {
          "id": "#main/Other.stdout",
          "type": "File",
          "outputSource": "#main/Other/stdout"
        },
        {
          "id": "#main/Middle.stdout",
          "type": "File",
          "outputSource": "#main/Middle/stdout"
        },
        {
          "id": "#main/Last.stdout",
          "type": "File",
          "outputSource": "#main/Last/stdout"
        }
      ],
      "steps": [
        {
          "id": "#main/First",
          "run": "#First.tool",
          "in": [],
          "out": [
            "#main/First/f",
            "#main/First/stdout"
          ]
        },
        {
          "id": "#main/Other",
          "run": "#Other.tool",
          "in": [],
          "out": [
            "#main/Other/stdout"
          ]
        },
        {
          "id": "#main/Middle",
          "run": "#Middle.tool",
          "in": [
            {
              "id": "#main/Middle/x",
              "default": [
                "--x"
              ]
            },
            {
              "id": "#main/Middle/x-1",
              "source": [
                "#main/First/f"
              ],
              "linkMerge": "merge_flattened"
            }
          ],
          "out": [
            "#main/Middle/m",
            "#main/Middle/stdout"
          ]
        },
        {
          "id": "#main/Last",
          "run": "#Last.tool",
          "in": [
            {
              "id": "#main/Last/x",
              "default": [
                "--x"
              ]
            },
            {
              "id": "#main/Last/x-1",
              "source": [
                "#main/Middle/m"
              ],
              "linkMerge": "merge_flattened"
            }
          ],
          "out": [
            "#main/Last/stdout"
          ]
        }
      ]
    },
    {
      "class": "CommandLineTool",
      "id": "#First.tool",
      "label": "P.A",
      "baseCommand": [
        "echo",
        "P.A"
      ],
      "inputs": [],
      "outputs": [
        {
          "id": "#First.tool/f",
          "type": "File",
          "outputBinding": {
            "glob": "f"
          }
        },
        {
          "id": "#First.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "First.stdout"
    },
    {
      "class": "CommandLineTool",
      "id": "#Other.tool",
      "label": "P.O",
      "baseCommand": [
        "echo",
        "P.O"
      ],
      "inputs": [],
      "outputs": [
        {
          "id": "#Other.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "Other.stdout"
    },
    {
      "class": "CommandLineTool",
      "id": "#Middle.tool",
      "label": "P.M",
      "baseCommand": [
        "echo",
        "P.M"
      ],
      "inputs": [
        {
          "id": "#Middle.tool/x",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#Middle.tool/x-1",
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
          "id": "#Middle.tool/m",
          "type": "File",
          "outputBinding": {
            "glob": "m"
          }
        },
        {
          "id": "#Middle.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "Middle.stdout"
    },
    {
      "class": "CommandLineTool",
      "id": "#Last.tool",
      "label": "P.Z",
      "baseCommand": [
        "echo",
        "P.Z"
      ],
      "inputs": [
        {
          "id": "#Last.tool/x",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#Last.tool/x-1",
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
          "id": "#Last.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "Last.stdout"
    }
  ]
}
