"""Rules layer: the only place that imports durable-rules."""
