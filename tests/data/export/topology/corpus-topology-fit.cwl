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
          "id": "#main/samples",
          "type": "File"
        }
      ],
      "outputs": [
        {
          "id": "#main/Load.stdout",
          "type": "File",
          "outputSource": "#main/Load/stdout"
        },
        {
          "id": "#main/Compute.part",
          "type": {
            "type": "array",
            "items": "File"
          },
          "outputSource": "#main/Compute/part"
        },
        {
          "id": "#main/Compute.stdout",
          "type": {
            "type": "array",
            "items": "File"
          },
          "outputSource": "#main/Compute/stdout"
        },
        {
          "id": "#main/Reduce.stdout",
          "type": "File",
          "outputSource": "#main/Reduce/stdout"
        },
        {
          "id": "#main/Store.stdout",
          "type": "File",
          "outputSource": "#main/Store/stdout"
        }
      ],
      "steps": [
        {
          "id": "#main/Load",
          "run": "#Load.tool",
          "in": [
            {
              "id": "#main/Load/source",
              "default": [
                "--source"
              ]
            },
            {
              "id": "#main/Load/source-1",
              "source": [
                "#main/samples"
              ],
              "linkMerge": "merge_flattened"
            }
          ],
          "out": [
            "#main/Load/chunk",
            "#main/Load/stdout"
          ]
        },
        {
          "id": "#main/Compute",
          "run": "#Compute.tool",
          "in": [
            {
              "id": "#main/Compute/data",
              "default": [
                "--data"
              ]
            },
            {
              "id": "#main/Compute/data-1",
              "source": [
                "#main/Load/chunk"
              ],
              "linkMerge": "merge_flattened"
            },
            {
              "id": "#main/Compute/seed",
              "default": [
                [
                  "--seed",
                  "1"
                ],
                [
                  "--seed",
                  "2"
                ],
                [
                  "--seed",
                  "3"
                ],
                [
                  "--seed",
                  "4"
                ]
              ]
            }
          ],
          "out": [
            "#main/Compute/part",
            "#main/Compute/stdout"
          ],
          "scatter": [
            "#main/Compute/seed"
          ],
          "scatterMethod": "flat_crossproduct"
        },
        {
          "id": "#main/Reduce",
          "run": "#Reduce.tool",
          "in": [
            {
              "id": "#main/Reduce/parts",
              "default": [
                "--parts"
              ]
            },
            {
              "id": "#main/Reduce/parts-1",
              "source": [
                "#main/Compute/part"
              ],
              "linkMerge": "merge_flattened"
            }
          ],
          "out": [
            "#main/Reduce/sum",
            "#main/Reduce/stdout"
          ]
        },
        {
          "id": "#main/Store",
          "run": "#Store.tool",
          "in": [
            {
              "id": "#main/Store/result",
              "default": [
                "--result"
              ]
            },
            {
              "id": "#main/Store/result-1",
              "source": [
                "#main/Reduce/sum"
              ],
              "linkMerge": "merge_flattened"
            }
          ],
          "out": [
            "#main/Store/stdout"
          ]
        }
      ]
    },
    {
      "class": "CommandLineTool",
      "id": "#Load.tool",
      "label": "Loader.Read",
      "baseCommand": [
        "echo",
        "Loader.Read"
      ],
      "inputs": [
        {
          "id": "#Load.tool/source",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#Load.tool/source-1",
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
          "id": "#Load.tool/chunk",
          "type": "File",
          "outputBinding": {
            "glob": "chunk"
          }
        },
        {
          "id": "#Load.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "Load.stdout"
    },
    {
      "class": "CommandLineTool",
      "id": "#Compute.tool",
      "label": "Kernel.Run",
      "baseCommand": [
        "echo",
        "Kernel.Run"
      ],
      "inputs": [
        {
          "id": "#Compute.tool/data",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#Compute.tool/data-1",
          "type": {
            "type": "array",
            "items": "File"
          },
          "inputBinding": {
            "position": 2
          }
        },
        {
          "id": "#Compute.tool/seed",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 3
          }
        }
      ],
      "outputs": [
        {
          "id": "#Compute.tool/part",
          "type": "File",
          "outputBinding": {
            "glob": "part"
          }
        },
        {
          "id": "#Compute.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "Compute.stdout",
      "hints": [
        {
          "class": "ResourceRequirement",
          "coresMin": 2,
          "ramMin": 1024
        },
        {
          "class": "DockerRequirement",
          "dockerPull": "docker.io/library/python:3.12-slim"
        }
      ]
    },
    {
      "class": "CommandLineTool",
      "id": "#Reduce.tool",
      "label": "Reducer.Sum",
      "baseCommand": [
        "echo",
        "Reducer.Sum"
      ],
      "inputs": [
        {
          "id": "#Reduce.tool/parts",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#Reduce.tool/parts-1",
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
          "id": "#Reduce.tool/sum",
          "type": "File",
          "outputBinding": {
            "glob": "sum"
          }
        },
        {
          "id": "#Reduce.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "Reduce.stdout"
    },
    {
      "class": "CommandLineTool",
      "id": "#Store.tool",
      "label": "Writer.Write",
      "baseCommand": [
        "echo",
        "Writer.Write"
      ],
      "inputs": [
        {
          "id": "#Store.tool/result",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#Store.tool/result-1",
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
          "id": "#Store.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "Store.stdout"
    }
  ]
}
