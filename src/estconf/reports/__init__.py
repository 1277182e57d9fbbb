"""What the commands write: the reports of what reading and checking returned, as text.

The reading and checking layers return records (:class:`~estconf.finding.Finding`,
:class:`~estconf.io.errors.Result`, the launchers' :class:`~estconf.launchers.base.TFConfigs`,
``explain``'s facts); only these modules write them, and only the command
line calls them.

- :mod:`estconf.reports.files`: what ``validate`` found of each file, as text,
  JSON, GitHub annotations or SARIF;
- :mod:`estconf.reports.sarif`: findings as a SARIF 2.1.0 log;
- :mod:`estconf.reports.explain`: what a reader derives, as ``explain``'s table or JSON;
- :mod:`estconf.reports.cluster`: ``check-cluster``'s report, in the same four formats;
- :mod:`estconf.reports.launchers`: what ``tf-config`` says on standard error of a launcher's input.
"""
