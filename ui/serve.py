"""``python ui/serve.py run ui/app.py [streamlit flags]``: what ``streamlit run`` does, after
starting a background thread that warms the assistant (parser, catalog, rule packs, guide
index, chart libraries), so that the first answer is as fast as the next. ``advisor ui``
runs this; plain ``streamlit run ui/app.py`` works too, only with a slower first answer.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WARM_QUESTIONS = ("微调一个 Llama-3-8B，LoRA，5 万条样本，要花多少钱？",
                  "What should a LoRA fine-tune of Llama-3-8B on 50k samples cost?",
                  "教我怎么控制算力成本")


def warm_up() -> None:
    """Best effort: a failure here only costs speed; the app reports real errors itself."""
    try:
        from advisor.assistant import ask

        for question in WARM_QUESTIONS:
            ask(question, offline=True)
        import altair  # noqa: F401  (charts of the cards)
        import pandas  # noqa: F401
    except Exception:
        return


def main() -> int:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    threading.Thread(target=warm_up, name="advisor-warm-up", daemon=True).start()
    from streamlit.web import cli

    sys.argv = ["streamlit", *sys.argv[1:]]
    return cli.main()  # type: ignore[no-any-return]


if __name__ == "__main__":
    sys.exit(main())
