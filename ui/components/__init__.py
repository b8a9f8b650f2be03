"""Cards and charts that render the advisor's reports (one concept per module)."""
