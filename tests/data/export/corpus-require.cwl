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
          "id": "#main/file1",
          "type": "File"
        },
        {
          "id": "#main/jpg",
          "type": "File"
        },
        {
          "id": "#main/png",
          "type": "File"
        },
        {
          "id": "#main/gif",
          "type": "File"
        }
      ],
      "outputs": [],
      "steps": []
    }
  ]
}
