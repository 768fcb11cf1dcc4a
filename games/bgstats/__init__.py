"""BG Stats, both ways: its files read (``reader``) and matched to the club (``matching``), the
club's plays written as its file and its "add this play" link (``writer``). Writing to the
database is the services' (games.services.bgstats). docs/bgstats.md tells every field."""
