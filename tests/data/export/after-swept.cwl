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
          "type": {
            "type": "array",
            "items": "File"
          },
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
              "id": "#main/A/i",
              "default": [
                [
                  "--i",
                  "1"
                ],
                [
                  "--i",
                  "2"
                ],
                [
                  "--i",
                  "3"
                ]
              ]
            }
          ],
          "out": [
            "#main/A/stdout"
          ],
          "scatter": [
            "#main/A/i"
          ],
          "scatterMethod": "flat_crossproduct"
        },
        {
          "id": "#main/B",
          "run": "#B.tool",
          "in": [
            {
              "id": "#main/B/after-A",
              "source": "#main/A/stdout"
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
          "id": "#A.tool/i",
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
          "id": "#B.tool/after-A",
          "type": {
            "type": "array",
            "items": "File"
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
