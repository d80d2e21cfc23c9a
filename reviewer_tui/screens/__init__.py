"""The reviewer app's screens, one module per view: the queue, a blueprint's detail, the editor, help, problems, and
the modal questions (a reason, quitting); `bindings.py` holds the keys they share."""
