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
          "id": "#main/input",
          "type": "File"
        }
      ],
      "outputs": [
        {
          "id": "#main/Prepare.mesh",
          "type": "File",
          "outputSource": "#main/Prepare/mesh"
        },
        {
          "id": "#main/Prepare.stdout",
          "type": "File",
          "outputSource": "#main/Prepare/stdout"
        },
        {
          "id": "#main/Solve.mesh.out",
          "type": {
            "type": "array",
            "items": "File"
          },
          "outputSource": "#main/Solve/mesh.out"
        },
        {
          "id": "#main/Solve.log",
          "type": {
            "type": "array",
            "items": "File"
          },
          "outputSource": "#main/Solve/log"
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
          "id": "#main/Audit.stdout",
          "type": "File",
          "outputSource": "#main/Audit/stdout"
        },
        {
          "id": "#main/Monitor.stdout",
          "type": "File",
          "outputSource": "#main/Monitor/stdout"
        }
      ],
      "steps": [
        {
          "id": "#main/Prepare",
          "run": "#Prepare.tool",
          "in": [
            {
              "id": "#main/Prepare/source",
              "source": [
                "#main/input"
              ],
              "linkMerge": "merge_flattened"
            },
            {
              "id": "#main/Prepare/cells",
              "default": [
                "--cells",
                "64"
              ]
            }
          ],
          "out": [
            "#main/Prepare/mesh",
            "#main/Prepare/stdout"
          ]
        },
        {
          "id": "#main/Solve",
          "run": "#Solve.tool",
          "in": [
            {
              "id": "#main/Solve/mesh",
              "default": [
                "--mesh"
              ]
            },
            {
              "id": "#main/Solve/mesh-1",
              "source": [
                "#main/Prepare/mesh"
              ],
              "linkMerge": "merge_flattened"
            },
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
            "#main/Solve/mesh.out",
            "#main/Solve/log",
            "#main/Solve/stdout"
          ],
          "scatter": [
            "#main/Solve/seed"
          ],
          "scatterMethod": "flat_crossproduct"
        },
        {
          "id": "#main/Audit",
          "run": "#Audit.tool",
          "in": [
            {
              "id": "#main/Audit/level",
              "default": [
                "--level",
                "full"
              ]
            },
            {
              "id": "#main/Audit/after-Prepare",
              "source": "#main/Prepare/stdout"
            }
          ],
          "out": [
            "#main/Audit/stdout"
          ]
        },
        {
          "id": "#main/Monitor",
          "run": "#Monitor.tool",
          "in": [
            {
              "id": "#main/Monitor/progress",
              "default": [
                "--progress"
              ]
            },
            {
              "id": "#main/Monitor/progress-1",
              "source": [
                "#main/Solve/log"
              ],
              "linkMerge": "merge_flattened"
            }
          ],
          "out": [
            "#main/Monitor/stdout"
          ]
        }
      ]
    },
    {
      "class": "CommandLineTool",
      "id": "#Prepare.tool",
      "label": "Tools.Prepare",
      "baseCommand": [
        "echo",
        "Tools.Prepare"
      ],
      "inputs": [
        {
          "id": "#Prepare.tool/source",
          "type": {
            "type": "array",
            "items": "File"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#Prepare.tool/cells",
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
          "id": "#Prepare.tool/mesh",
          "type": "File",
          "outputBinding": {
            "glob": "mesh.dat"
          }
        },
        {
          "id": "#Prepare.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "Prepare.stdout",
      "hints": [
        {
          "class": "DockerRequirement",
          "dockerPull": "docker.io/library/alpine:3.20"
        }
      ]
    },
    {
      "class": "CommandLineTool",
      "id": "#Solve.tool",
      "label": "Solver.Main",
      "baseCommand": [
        "echo",
        "Solver.Main"
      ],
      "inputs": [
        {
          "id": "#Solve.tool/mesh",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#Solve.tool/mesh-1",
          "type": {
            "type": "array",
            "items": "File"
          },
          "inputBinding": {
            "position": 2
          }
        },
        {
          "id": "#Solve.tool/seed",
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
          "id": "#Solve.tool/mesh.out",
          "type": "File",
          "outputBinding": {
            "glob": "mesh.out"
          }
        },
        {
          "id": "#Solve.tool/log",
          "type": "File",
          "outputBinding": {
            "glob": "*.log"
          }
        },
        {
          "id": "#Solve.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "Solve.stdout",
      "hints": [
        {
          "class": "ResourceRequirement",
          "coresMin": 4
        }
      ]
    },
    {
      "class": "CommandLineTool",
      "id": "#Audit.tool",
      "label": "Tools.Audit",
      "baseCommand": [
        "echo",
        "Tools.Audit"
      ],
      "inputs": [
        {
          "id": "#Audit.tool/level",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#Audit.tool/after-Prepare",
          "type": "File"
        }
      ],
      "outputs": [
        {
          "id": "#Audit.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "Audit.stdout"
    },
    {
      "class": "CommandLineTool",
      "id": "#Monitor.tool",
      "label": "Vis.Monitor",
      "baseCommand": [
        "echo",
        "Vis.Monitor"
      ],
      "inputs": [
        {
          "id": "#Monitor.tool/progress",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#Monitor.tool/progress-1",
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
          "id": "#Monitor.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "Monitor.stdout"
    }
  ]
}
