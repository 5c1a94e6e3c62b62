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
        }
      ],
      "steps": [
        {
          "id": "#main/S",
          "run": "#S.tool",
          "in": [
            {
              "id": "#main/S/plain",
              "default": [
                "hello"
              ]
            },
            {
              "id": "#main/S/escaped",
              "default": [
                "tab\tquote\"backslash\\ newline\n"
              ]
            },
            {
              "id": "#main/S/unicode",
              "default": [
                "-u",
                "AA"
              ]
            },
            {
              "id": "#main/S/empty",
              "default": [
                "--empty",
                ""
              ]
            }
          ],
          "out": [
            "#main/S/stdout"
          ]
        }
      ]
    },
    {
      "class": "CommandLineTool",
      "id": "#S.tool",
      "label": "Text.Echo",
      "baseCommand": [
        "echo",
        "Text.Echo"
      ],
      "inputs": [
        {
          "id": "#S.tool/plain",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#S.tool/escaped",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 2
          }
        },
        {
          "id": "#S.tool/unicode",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 3
          }
        },
        {
          "id": "#S.tool/empty",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 4
          }
        }
      ],
      "outputs": [
        {
          "id": "#S.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "S.stdout"
    }
  ]
}
