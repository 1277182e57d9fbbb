#!/bin/bash
# Start script of worker 0 of the trainer job: one node's TF_CONFIG, then the program.
set -euo pipefail

export TF_CONFIG='{
  "cluster": {
    "chief": ["trainer-chief-0.trainer:2222"],
    "worker": ["trainer-worker-0.trainer:2222", "trainer-worker-1.trainer:2222"]
  },
  "task": {"type": "worker", "index": 0}
}'

exec python -m trainer.task --model-dir gs://my-bucket/models/wide-deep
