#!/bin/sh
# Worker 1: the TF_CONFIG in double quotes, its JSON quotes escaped, over continued lines.
MODEL_DIR="gs://my-bucket/models/wide-deep"

export TF_CONFIG="{\"cluster\": {\"chief\": [\"trainer-chief-0.trainer:2222\"], \
\"worker\": [\"trainer-worker-0.trainer:2222\", \"trainer-worker-1.trainer:2222\"]}, \
\"task\": {\"type\": \"worker\", \"index\": 1}}"

python -m trainer.task --model-dir "$MODEL_DIR" 2>&1 | tee /tmp/worker-1.log
