#!/bin/bash
# One script for every pod: the TF_CONFIG is chosen by ROLE when it runs.
CLUSTER='{"chief": ["trainer-chief-0.trainer:2222"], "worker": ["trainer-worker-0.trainer:2222"]}'
case "${ROLE:-worker}" in
  chief)
    export TF_CONFIG='{"cluster": {"chief": ["trainer-chief-0.trainer:2222"], "worker": ["trainer-worker-0.trainer:2222"]},
                       "task": {"type": "chief", "index": 0}}'
    ;;
  *)
    export TF_CONFIG='{"cluster": {"chief": ["trainer-chief-0.trainer:2222"], "worker": ["trainer-worker-0.trainer:2222"]},
                       "task": {"type": "worker", "index": 0}}'
    ;;
esac
exec python -m trainer.task
