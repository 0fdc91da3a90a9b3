"""Helpers of the real-world proof suite: certificates, processes, partgate, inputs and comparison."""
