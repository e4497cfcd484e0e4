"""The job queue for long work (docs/queue.md): huey's storage and workers, the server's job records.

``pieces`` names the functions a job may run, ``jobs`` holds a job's lease and result beside the queue,
``worker`` is the consumer (``ulti worker`` and the server's own workers), ``runner`` the server's side.
"""
