"""The context builder: what the model sees, within token budgets."""
