"""A cluster written by hand: a cluster file, and the TF_CONFIG of each of its tasks."""
