"""The numbered stages, one module each; see pipeline.registry for their order."""
