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
          "id": "#main/Gpu.stdout",
          "type": "File",
          "outputSource": "#main/Gpu/stdout"
        },
        {
          "id": "#main/Anywhere.stdout",
          "type": "File",
          "outputSource": "#main/Anywhere/stdout"
        },
        {
          "id": "#main/Cpu.stdout",
          "type": {
            "type": "array",
            "items": "File"
          },
          "outputSource": "#main/Cpu/stdout"
        },
        {
          "id": "#main/Reduce.stdout",
          "type": "File",
          "outputSource": "#main/Reduce/stdout"
        }
      ],
      "steps": [
        {
          "id": "#main/Gpu",
          "run": "#Gpu.tool",
          "in": [],
          "out": [
            "#main/Gpu/o",
            "#main/Gpu/stdout"
          ]
        },
        {
          "id": "#main/Anywhere",
          "run": "#Anywhere.tool",
          "in": [],
          "out": [
            "#main/Anywhere/stdout"
          ]
        },
        {
          "id": "#main/Cpu",
          "run": "#Cpu.tool",
          "in": [
            {
              "id": "#main/Cpu/n",
              "default": [
                [
                  "--n",
                  "1"
                ],
                [
                  "--n",
                  "2"
                ]
              ]
            }
          ],
          "out": [
            "#main/Cpu/stdout"
          ],
          "scatter": [
            "#main/Cpu/n"
          ],
          "scatterMethod": "flat_crossproduct"
        },
        {
          "id": "#main/Reduce",
          "run": "#Reduce.tool",
          "in": [
            {
              "id": "#main/Reduce/x",
              "default": [
                "--x"
              ]
            },
            {
              "id": "#main/Reduce/x-1",
              "source": [
                "#main/Gpu/o"
              ],
              "linkMerge": "merge_flattened"
            }
          ],
          "out": [
            "#main/Reduce/stdout"
          ]
        }
      ]
    },
    {
      "class": "CommandLineTool",
      "id": "#Gpu.tool",
      "label": "K.Gpu",
      "baseCommand": [
        "echo",
        "K.Gpu"
      ],
      "inputs": [],
      "outputs": [
        {
          "id": "#Gpu.tool/o",
          "type": "File",
          "outputBinding": {
            "glob": "o"
          }
        },
        {
          "id": "#Gpu.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "Gpu.stdout",
      "hints": [
        {
          "class": "ResourceRequirement",
          "ramMin": 512
        }
      ]
    },
    {
      "class": "CommandLineTool",
      "id": "#Anywhere.tool",
      "label": "K.Any",
      "baseCommand": [
        "echo",
        "K.Any"
      ],
      "inputs": [],
      "outputs": [
        {
          "id": "#Anywhere.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "Anywhere.stdout"
    },
    {
      "class": "CommandLineTool",
      "id": "#Cpu.tool",
      "label": "K.Cpu",
      "baseCommand": [
        "echo",
        "K.Cpu"
      ],
      "inputs": [
        {
          "id": "#Cpu.tool/n",
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
          "id": "#Cpu.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "Cpu.stdout"
    },
    {
      "class": "CommandLineTool",
      "id": "#Reduce.tool",
      "label": "K.Reduce",
      "baseCommand": [
        "echo",
        "K.Reduce"
      ],
      "inputs": [
        {
          "id": "#Reduce.tool/x",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#Reduce.tool/x-1",
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
          "id": "#Reduce.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "Reduce.stdout",
      "hints": [
        {
          "class": "ResourceRequirement",
          "ramMin": 2048
        }
      ]
    }
  ]
}
