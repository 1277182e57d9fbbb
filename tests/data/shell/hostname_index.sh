#!/bin/bash
# The task index is the ordinal of the StatefulSet pod (trainer-worker-3 -> 3), known when it runs.
INDEX="$(hostname | sed 's/.*-//')"
export TF_CONFIG="{\"cluster\": {\"worker\": [\"trainer-worker-0.trainer:2222\", \"trainer-worker-1.trainer:2222\"]},
  \"task\": {\"type\": \"worker\", \"index\": $(hostname | sed 's/.*-//')}}"
exec python -m trainer.task
