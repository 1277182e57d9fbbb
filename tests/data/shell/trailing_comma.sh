#!/bin/bash
export TF_CONFIG='{
  "cluster": {
    "chief": ["trainer-chief-0.trainer:2222"],
    "worker": ["trainer-worker-0.trainer:2222", "trainer-worker-1.trainer:2222"],
  },
  "task": {"type": "worker", "index": 0}
}'
python train.py
