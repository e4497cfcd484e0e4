"""Deal analysis and the coach: every decision of a finished deal priced by sampling and the solver.

Imports the bots and the engine, never the server (an import-linter contract holds it). In reading
order: ``pricing`` (one decision's alternatives valued from a seat's view), ``review`` (a finished
deal's analysis), ``whatif`` (the double-dummy outcome of another line of play), ``coach`` (hints and
lessons for learners), ``report`` (the text table of ``ulti analyse``).
"""

from ulti.analysis.pricing import DEFAULT_WORLDS, Priced, price_view
from ulti.analysis.review import analyse_deal, analyse_record, finished_deal, label_of

__all__ = ["DEFAULT_WORLDS", "Priced", "analyse_deal", "analyse_record", "finished_deal", "label_of", "price_view"]
