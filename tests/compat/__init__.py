"""Differential tests: estconf against real TensorFlow (run by `make compat`).

Every suite runs against TensorFlow 2.15.1 and tensorflow-estimator 2.15.0;
the suites that need no estimator (those of the Makefile's
``TF221_SUITES``) run against TensorFlow 2.21.0 as well.
"""
