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
          "id": "#main/B.stdout",
          "type": "File",
          "outputSource": "#main/B/stdout"
        }
      ],
      "steps": [
        {
          "id": "#main/B",
          "run": "#B.tool",
          "in": [
            {
              "id": "#main/B/no",
              "default": [
                "false"
              ]
            },
            {
              "id": "#main/B/yes",
              "default": [
                "--yes"
              ]
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
      "id": "#B.tool",
      "label": "Logic.Flags",
      "baseCommand": [
        "echo",
        "Logic.Flags"
      ],
      "inputs": [
        {
          "id": "#B.tool/no",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#B.tool/yes",
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
          "id": "#B.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "B.stdout"
    }
  ]
}
