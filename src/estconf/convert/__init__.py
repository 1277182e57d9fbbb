"""Conversions of one launcher's manifest into another's that runs the same TensorFlow job.

``tfjob`` turns a Kubeflow TFJob into a Kubeflow Trainer v2 TrainingRuntime
and TrainJob, or into a plain JobSet (:func:`~estconf.convert.tfjob.tfjob_to_trainjob`),
each pod given the TF_CONFIG the training operator would have written;
``policies`` maps the TFJob's restart, run and success policies; ``reading``
reads the TFJob of a file and places what the conversion says in it.
"""
