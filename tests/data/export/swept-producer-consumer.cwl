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
          "id": "#main/Solve.res.txt",
          "type": {
            "type": "array",
            "items": "File"
          },
          "outputSource": "#main/Solve/res.txt"
        },
        {
          "id": "#main/Solve.stdout",
          "type": {
            "type": "array",
            "items": "File"
          },
          "outputSource": "#main/Solve/stdout"
        },
        {
          "id": "#main/Plot.stdout",
          "type": {
            "type": "array",
            "items": "File"
          },
          "outputSource": "#main/Plot/stdout"
        }
      ],
      "steps": [
        {
          "id": "#main/Solve",
          "run": "#Solve.tool",
          "in": [
            {
              "id": "#main/Solve/seed",
              "default": [
                [
                  "--seed",
                  "1"
                ],
                [
                  "--seed",
                  "2"
                ]
              ]
            }
          ],
          "out": [
            "#main/Solve/res.txt",
            "#main/Solve/stdout"
          ],
          "scatter": [
            "#main/Solve/seed"
          ],
          "scatterMethod": "flat_crossproduct"
        },
        {
          "id": "#main/Plot",
          "run": "#Plot.tool",
          "in": [
            {
              "id": "#main/Plot/data",
              "default": [
                "--data"
              ]
            },
            {
              "id": "#main/Plot/data-1",
              "source": [
                "#main/Solve/res.txt"
              ],
              "linkMerge": "merge_flattened"
            },
            {
              "id": "#main/Plot/style",
              "default": [
                [
                  "--style",
                  "a"
                ],
                [
                  "--style",
                  "b"
                ],
                [
                  "--style",
                  "c"
                ]
              ]
            }
          ],
          "out": [
            "#main/Plot/stdout"
          ],
          "scatter": [
            "#main/Plot/style"
          ],
          "scatterMethod": "flat_crossproduct"
        }
      ]
    },
    {
      "class": "CommandLineTool",
      "id": "#Solve.tool",
      "label": "Solver.Run",
      "baseCommand": [
        "echo",
        "Solver.Run"
      ],
      "inputs": [
        {
          "id": "#Solve.tool/seed",
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
          "id": "#Solve.tool/res.txt",
          "type": "File",
          "outputBinding": {
            "glob": "res.txt"
          }
        },
        {
          "id": "#Solve.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "Solve.stdout"
    },
    {
      "class": "CommandLineTool",
      "id": "#Plot.tool",
      "label": "Vis.Plot",
      "baseCommand": [
        "echo",
        "Vis.Plot"
      ],
      "inputs": [
        {
          "id": "#Plot.tool/data",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#Plot.tool/data-1",
          "type": {
            "type": "array",
            "items": "File"
          },
          "inputBinding": {
            "position": 2
          }
        },
        {
          "id": "#Plot.tool/style",
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
          "id": "#Plot.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "Plot.stdout"
    }
  ]
}
