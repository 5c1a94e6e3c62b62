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
          "id": "#main/Producer.stdout",
          "type": "File",
          "outputSource": "#main/Producer/stdout"
        },
        {
          "id": "#main/Consumer.stdout",
          "type": "File",
          "outputSource": "#main/Consumer/stdout"
        }
      ],
      "steps": [
        {
          "id": "#main/Producer",
          "run": "#Producer.tool",
          "in": [
            {
              "id": "#main/Producer/rate",
              "default": [
                "--rate",
                "5"
              ]
            }
          ],
          "out": [
            "#main/Producer/events",
            "#main/Producer/stdout"
          ]
        },
        {
          "id": "#main/Consumer",
          "run": "#Consumer.tool",
          "in": [
            {
              "id": "#main/Consumer/events",
              "default": [
                "--events"
              ]
            },
            {
              "id": "#main/Consumer/events-1",
              "source": [
                "#main/Producer/events"
              ],
              "linkMerge": "merge_flattened"
            }
          ],
          "out": [
            "#main/Consumer/stdout"
          ]
        }
      ]
    },
    {
      "class": "CommandLineTool",
      "id": "#Producer.tool",
      "label": "Sim.Emit",
      "baseCommand": [
        "echo",
        "Sim.Emit"
      ],
      "inputs": [
        {
          "id": "#Producer.tool/rate",
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
          "id": "#Producer.tool/events",
          "type": "File",
          "outputBinding": {
            "glob": "events"
          }
        },
        {
          "id": "#Producer.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "Producer.stdout"
    },
    {
      "class": "CommandLineTool",
      "id": "#Consumer.tool",
      "label": "Sim.Watch",
      "baseCommand": [
        "echo",
        "Sim.Watch"
      ],
      "inputs": [
        {
          "id": "#Consumer.tool/events",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#Consumer.tool/events-1",
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
          "id": "#Consumer.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "Consumer.stdout"
    }
  ]
}
