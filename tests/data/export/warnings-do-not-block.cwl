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
          "id": "#main/unused",
          "type": "File"
        }
      ],
      "outputs": [
        {
          "id": "#main/A.stdout",
          "type": "File",
          "outputSource": "#main/A/stdout"
        },
        {
          "id": "#main/Empty.stdout",
          "type": {
            "type": "array",
            "items": "File"
          },
          "outputSource": "#main/Empty/stdout"
        }
      ],
      "steps": [
        {
          "id": "#main/A",
          "run": "#A.tool",
          "in": [
            {
              "id": "#main/A/x",
              "default": [
                "--x",
                "1"
              ]
            }
          ],
          "out": [
            "#main/A/stdout"
          ]
        },
        {
          "id": "#main/Empty",
          "run": "#Empty.tool",
          "in": [
            {
              "id": "#main/Empty/n",
              "default": []
            }
          ],
          "out": [
            "#main/Empty/stdout"
          ],
          "scatter": [
            "#main/Empty/n"
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
      "inputs": [
        {
          "id": "#A.tool/x",
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
      "id": "#Empty.tool",
      "label": "P.E",
      "baseCommand": [
        "echo",
        "P.E"
      ],
      "inputs": [
        {
          "id": "#Empty.tool/n",
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
          "id": "#Empty.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "Empty.stdout"
    }
  ]
}
