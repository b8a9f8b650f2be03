"""The Streamlit face of Compute Cost Advisor: chat, estimate, contract review, usage,
learning path and report pages. The only package that imports streamlit; it holds no cost or
rule logic and calls only ``advisor.tools``, ``advisor.assistant`` and ``advisor.knowledge``."""
