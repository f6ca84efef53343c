"""The static performance model: device figures, work and traffic read from the stages, the prediction."""
