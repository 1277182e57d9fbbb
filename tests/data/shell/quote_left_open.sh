#!/bin/bash
export TF_CONFIG='{
  "cluster": {"worker": ["trainer-worker-0.trainer:2222"]},
  "task": {"type": "worker", "index": 0}
}
python train.py
