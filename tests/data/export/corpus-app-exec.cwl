{
  "cwlVersion": "v1.2",
  "$graph": [
    {
      "class": "Workflow",
      "id": "#main",
      "label": "Geometry optimization",
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
          "id": "#main/molecule",
          "type": "File"
        }
      ],
      "outputs": [
        {
          "id": "#main/Optimize.stdout",
          "type": "File",
          "outputSource": "#main/Optimize/stdout"
        },
        {
          "id": "#main/Plot.stdout",
          "type": "File",
          "outputSource": "#main/Plot/stdout"
        }
      ],
      "steps": [
        {
          "id": "#main/Optimize",
          "run": "#Optimize.tool",
          "in": [
            {
              "id": "#main/Optimize/input",
              "default": [
                "--input"
              ]
            },
            {
              "id": "#main/Optimize/input-1",
              "source": [
                "#main/molecule"
              ],
              "linkMerge": "merge_flattened"
            },
            {
              "id": "#main/Optimize/method",
              "default": [
                "--method",
                "B3LYP"
              ]
            },
            {
              "id": "#main/Optimize/basis",
              "default": [
                "--basis",
                "def2-SVP"
              ]
            },
            {
              "id": "#main/Optimize/nodes",
              "default": [
                "--nodes",
                "2"
              ]
            },
            {
              "id": "#main/Optimize/walltime",
              "default": [
                "--walltime",
                "3600"
              ]
            }
          ],
          "out": [
            "#main/Optimize/geometry.xyz",
            "#main/Optimize/stdout"
          ]
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
                "#main/Optimize/geometry.xyz"
              ],
              "linkMerge": "merge_flattened"
            },
            {
              "id": "#main/Plot/title",
              "default": [
                "--title",
                "Optimized geometry"
              ]
            }
          ],
          "out": [
            "#main/Plot/stdout"
          ]
        }
      ]
    },
    {
      "class": "CommandLineTool",
      "id": "#Optimize.tool",
      "label": "ORCA.DFT",
      "baseCommand": [
        "echo",
        "ORCA.DFT"
      ],
      "inputs": [
        {
          "id": "#Optimize.tool/input",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 1
          }
        },
        {
          "id": "#Optimize.tool/input-1",
          "type": {
            "type": "array",
            "items": "File"
          },
          "inputBinding": {
            "position": 2
          }
        },
        {
          "id": "#Optimize.tool/method",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 3
          }
        },
        {
          "id": "#Optimize.tool/basis",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 4
          }
        },
        {
          "id": "#Optimize.tool/nodes",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 5
          }
        },
        {
          "id": "#Optimize.tool/walltime",
          "type": {
            "type": "array",
            "items": "string"
          },
          "inputBinding": {
            "position": 6
          }
        }
      ],
      "outputs": [
        {
          "id": "#Optimize.tool/geometry.xyz",
          "type": "File",
          "outputBinding": {
            "glob": "geometry.xyz"
          }
        },
        {
          "id": "#Optimize.tool/stdout",
          "type": "stdout"
        }
      ],
      "stdout": "Optimize.stdout"
    },
    {
      "class": "CommandLineTool",
      "id": "#Plot.tool",
      "label": "ScienceVis.ThreeDGraph.Mesh",
      "baseCommand": [
        "echo",
        "ScienceVis.ThreeDGraph.Mesh"
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
          "id": "#Plot.tool/title",
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
