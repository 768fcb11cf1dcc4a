"""Model rows read and written with SQL written by hand, for the statements of a move entry.

A move entry runs a handful of small statements, and building them through the ORM cost up to
ten times running them: 0.67 ms against 0.04 ms for the play's seats under its lock, 0.43
against 0.05 for its move log, 0.20 against 0.06 for an INSERT (SQLite; docs/benchmarks.md,
issue 19). Those statements are written in SQL. Only the SQL is: its columns are the models'
own fields, and every value goes through the conversions the ORM itself applies (both ways), so
the instances and the rows are the ORM's.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Field, Model


def quoted(name: str) -> str:
    return connection.ops.quote_name(name)


def column(table: str, name: str) -> str:
    """``table.name``, quoted (``table``: a table's name or its alias in the statement)."""
    return f"{quoted(table)}.{quoted(name)}"


def join(model: type[Model], key: str, *, alias: str | None = None, outer: bool = False) -> str:
    """The JOIN of ``model``'s table (named ``alias`` if given) on its primary key = ``key``
    (a column())."""
    table = model._meta.db_table
    named = f"{quoted(table)} {quoted(alias)}" if alias else quoted(table)
    kind = "LEFT OUTER" if outer else "INNER"
    return f" {kind} JOIN {named} ON {column(alias or table, model._meta.pk.column)} = {key}"


def storable_key(model: type[Model], value: int) -> bool:
    """Whether ``value`` fits ``model``'s primary key: a number from a URL may not, and the
    database would refuse it with an error where the ORM finds no row."""
    low, high = connection.ops.integer_field_range(model._meta.pk.get_internal_type())
    return (low is None or value >= low) and (high is None or value <= high)


class Columns:
    """Columns of a SELECT, read from table ``alias``: ``fields`` of a model, and how to turn
    their values, as the database gives them, into what the ORM would have made."""

    def __init__(self, alias: str, fields: Sequence[Field]) -> None:
        self.alias = alias
        self.fields = list(fields)
        self.sql = ", ".join(f"{quoted(alias)}.{quoted(f.column)}" for f in self.fields)
        # The backend's converters are methods of one connection (there is one per thread).
        self._converters: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    @classmethod
    def of(cls, model: type[Model], alias: str | None = None) -> Columns:
        """Every column of ``model`` (aliased as its table unless told)."""
        return cls(alias or model._meta.db_table, model._meta.concrete_fields)

    def __len__(self) -> int:
        return len(self.fields)

    def converters(self) -> list[tuple[int, list, Any]]:
        """What the ORM's compiler applies to each column (SQLCompiler.get_converters)."""
        wrapper = connections[DEFAULT_DB_ALIAS]
        found = self._converters.get(wrapper)
        if found is None:
            found = []
            for index, field in enumerate(self.fields):
                column = field.get_col(self.alias)
                convs = wrapper.ops.get_db_converters(column) + column.get_db_converters(wrapper)
                if convs:
                    found.append((index, convs, column))
            self._converters[wrapper] = found
        return found

    def values(self, row: Sequence[Any], start: int, converters: list) -> list[Any]:
        """The converted values of these columns in ``row``, from position ``start``."""
        values = list(row[start : start + len(self.fields)])
        for index, convs, column in converters:
            value = values[index]
            for convert in convs:
                value = convert(value, column, connection)
            values[index] = value
        return values


def insert(obj: Model) -> None:
    """INSERT a new ``obj`` and set its primary key, as ``obj.save()`` would (with no signals:
    the project sends none). Fields filled on save (``auto_now_add``) are filled on ``obj``."""
    meta = obj._meta
    fields = [field for field in meta.concrete_fields if field is not meta.pk]
    values = [field.get_db_prep_save(field.pre_save(obj, True), connection) for field in fields]
    columns = ", ".join(quoted(field.column) for field in fields)
    sql = (
        f"INSERT INTO {quoted(meta.db_table)} ({columns})"
        f" VALUES ({', '.join(['%s'] * len(fields))}) RETURNING {quoted(meta.pk.column)}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        obj.pk = cursor.fetchone()[0]
    obj._state.adding, obj._state.db = False, connection.alias


def update(objs: Sequence[Model], names: Sequence[str]) -> None:
    """UPDATE the fields ``names`` of ``objs`` (rows of one model) in one statement, as
    ``bulk_update`` does: each column set by its row's key (a CASE), with the values through
    the ORM's own conversions (five seats: 3.6 ms through ``bulk_update``, 0.1 ms so, on SQLite
    on this machine)."""
    meta = objs[0]._meta
    key = quoted(meta.pk.column)
    cast = connection.features.requires_casted_case_in_updates  # PostgreSQL: NULLs are untyped
    sets: list[str] = []
    params: list[Any] = []
    for name in names:
        field = meta.get_field(name)
        case = f"CASE {key} {' '.join(['WHEN %s THEN %s'] * len(objs))} END"
        if cast:
            case = f"CAST({case} AS {field.cast_db_type(connection)})"
        sets.append(f"{quoted(field.column)} = {case}")
        for obj in objs:
            params += [obj.pk, field.get_db_prep_save(getattr(obj, field.attname), connection)]
    rows = ", ".join(["%s"] * len(objs))
    sql = f"UPDATE {quoted(meta.db_table)} SET {', '.join(sets)} WHERE {key} IN ({rows})"
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, *(obj.pk for obj in objs)])


def instances(
    model: type[Model], columns: Columns, rows: Iterable[Sequence[Any]], start: int = 0
) -> list[Model]:
    """One ``model`` instance per row, from its columns (every concrete field, in order) at
    ``start``, loaded as the ORM loads them (Model.from_db)."""
    converters = columns.converters()
    return [
        model.from_db(connection.alias, None, columns.values(row, start, converters))
        for row in rows
    ]
