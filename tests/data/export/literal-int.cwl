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
          "id": "#main/N.stdout",
          "type": "File",
          "outputSource": "#main/N/stdout"
        }
      ],
      "steps": [
        {
          "id": "#main/N",
          "run": "#N.tool",
          "in": [
            {
              "id": "#main/N/small",
              "default": [
                "--small",
                "42"
              ]
            },
            {
              "id": "#main/N/negative",
              "default": [
                "--negative",
                "-7"
              ]
            },
            {
              "id": "#main/N/plus",
              "default": [
                "--plus",
                "+3"
              ]
            },
            {
              "id": "#main/N/max32",
              "default": [
                "--max32",
                "2147483647"
              ]
            },
            {
              "id": "#main/N/over32",
              "default": [
                "--over32",
                "2147483648"
              ]
            },
            {
              "id": "#main/N/min32",
              "default": [
                "--min32",
                "-2147483648"
              ]
            },
            {
              "id": "#main/N/under32",
              "default": [
                "--under32",
                "-2147483649"
              ]
            },
            {
              "id": "#main/N/big",
              "default": [
                "--big",
                "9223372036854775807"
              ]
            }
          ],
          "out": [
            "#main/N/stdout"
          ]
        }
      ]
    },
    {
      "class": "CommandLineTool",
      "id": "#N.tool",
      "label": "Math.Ints",
      "baseCommand": [
        "echo",
        "Math.Ints"
      ],
      "inputs": [
        {
          "id": "#N.tool/small",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#N.tool/negative",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 2
          }
        },
        {
          "id": "#N.tool/plus",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 3
          }
        },
        {
          "id": "#N.tool/max32",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 4
          }
        },
        {
          "id": "#N.tool/over32",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 5
          }
        },
        {
          "id": "#N.tool/min32",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 6
          }
        },
        {
          "id": "#N.tool/under32",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 7
          }
        },
        {
          "id": "#N.tool/big",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 8
          }
        }
      ],
      "outputs": [
        {
          "id": "#N.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "N.stdout"
    }
  ]
}
