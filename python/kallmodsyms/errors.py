# SPDX-License-Identifier: GPL-2.0
"""KmsError, the one exception the decoder's modules raise for their input
(blob.py for the blob and its image, paths.py for the paths images); blob
exports it to its users."""

from .constants import REASONS


class KmsError(Exception):
    """A problem with the input, phrased for the user (one line).  When it
    is a refused blob, reason is its class: one of REASONS, FORMAT.md 7's
    words, made from the C list (kms/reasons.h) into constants.py."""

    def __init__(self, message, reason=None):
        super().__init__(message)
        if reason is not None and reason not in REASONS:
            raise ValueError("%r is not a reason of FORMAT.md 7" % reason)
        self.reason = reason
