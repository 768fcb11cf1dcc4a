"""Model rows read and written with SQL written by hand, for the statements of a move entry.

A move entry runs a handful of small statements, and building them through the ORM cost up to
ten times running them: 0.67 ms against 0.04 ms for the play's seats under its lock, 0.43
against 0.05 for its move log, 0.20 against 0.06 for an INSERT (SQLite; docs/benchmarks.md,
issue 19). Those statements are written in SQL. Only the SQL is: its columns are the models'
own fields, and every value goes through the conversions the ORM itself applies (both ways), so
the instances and the rows are the ORM's.
"""

from __future__ import annotations

import functools
import inspect
import weakref
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Field, Model
from django.db.models.base import ModelState
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.signals import post_init, pre_init


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

    def values(
        self, row: Sequence[Any], start: int, converters: list, wrapper: Any = None
    ) -> list[Any]:
        """The converted values of these columns in ``row``, from position ``start``
        (``wrapper``: the connection, when the caller has it)."""
        wrapper = connection if wrapper is None else wrapper
        values = list(row[start : start + len(self.fields)])
        for index, convs, column in converters:
            value = values[index]
            for convert in convs:
                value = convert(value, column, wrapper)
            values[index] = value
        return values


@functools.cache
def _insert_sql(model: type[Model], vendor: str) -> tuple[str, tuple[Field, ...]]:
    """``insert``'s statement for ``model`` (every concrete field but the key), and its fields:
    made once, as the ORM makes its own anew for every save."""
    meta = model._meta
    fields = tuple(field for field in meta.concrete_fields if field is not meta.pk)
    columns = ", ".join(quoted(field.column) for field in fields)
    sql = (
        f"INSERT INTO {quoted(meta.db_table)} ({columns})"
        f" VALUES ({', '.join(['%s'] * len(fields))}) RETURNING {quoted(meta.pk.column)}"
    )
    return sql, fields


def insert_statement(obj: Model) -> tuple[str, list[Any]]:
    """The INSERT of a new ``obj`` (returning its key) and its parameters, as ``obj.save()``
    would write it; fields filled on save (``auto_now_add``) are filled on ``obj``."""
    wrapper = connections[DEFAULT_DB_ALIAS]
    sql, fields = _insert_sql(type(obj), wrapper.vendor)
    return sql, [field.get_db_prep_save(field.pre_save(obj, True), wrapper) for field in fields]


def inserted(obj: Model, pk: Any) -> None:
    """``obj``, whose INSERT returned ``pk``, as a saved instance."""
    obj.pk = pk
    obj._state.adding, obj._state.db = False, DEFAULT_DB_ALIAS


def insert(obj: Model) -> None:
    """INSERT a new ``obj`` and set its primary key, as ``obj.save()`` would (with no signals:
    the project sends none). Fields filled on save (``auto_now_add``) are filled on ``obj``."""
    sql, values = insert_statement(obj)
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(sql, values)
        inserted(obj, cursor.fetchone()[0])


def update(objs: Sequence[Model], names: Sequence[str]) -> None:
    """UPDATE the fields ``names`` of ``objs`` (rows of one model) in one statement, as
    ``bulk_update`` does: each column set by its row's key (a CASE), with the values through
    the ORM's own conversions (five seats: 3.6 ms through ``bulk_update``, 0.1 ms so, on SQLite
    on this machine)."""
    sql, params = update_statement(objs, names)
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(sql, params)


def update_statement(objs: Sequence[Model], names: Sequence[str]) -> tuple[str, list[Any]]:
    """``update``'s statement and its parameters."""
    connection = connections[DEFAULT_DB_ALIAS]
    sql, fields = _update_sql(type(objs[0]), tuple(names), len(objs), connection.vendor)
    params: list[Any] = []
    for field in fields:
        for obj in objs:
            params += [obj.pk, field.get_db_prep_save(getattr(obj, field.attname), connection)]
    return sql, [*params, *(obj.pk for obj in objs)]


@functools.cache
def _update_sql(
    model: type[Model], names: tuple[str, ...], rows: int, vendor: str
) -> tuple[str, tuple[Field, ...]]:
    """``update``'s statement for ``rows`` rows of ``model``, and the fields it sets."""
    meta = model._meta
    key = quoted(meta.pk.column)
    cast = connection.features.requires_casted_case_in_updates  # PostgreSQL: NULLs are untyped
    fields = tuple(meta.get_field(name) for name in names)
    sets: list[str] = []
    for field in fields:
        case = f"CASE {key} {' '.join(['WHEN %s THEN %s'] * rows)} END"
        if cast:
            case = f"CAST({case} AS {field.cast_db_type(connection)})"
        sets.append(f"{quoted(field.column)} = {case}")
    keys = ", ".join(["%s"] * rows)
    return f"UPDATE {quoted(meta.db_table)} SET {', '.join(sets)} WHERE {key} IN ({keys})", fields


def instances(
    model: type[Model], columns: Columns, rows: Iterable[Sequence[Any]], start: int = 0
) -> list[Model]:
    """One ``model`` instance per row, from its columns (every concrete field, in order) at
    ``start``, loaded as the ORM loads them (Model.from_db): made without Model.__init__ when
    nothing tells the two apart (``_plain``), as for the rows of a move entry (issue 32)."""
    wrapper = connections[DEFAULT_DB_ALIAS]
    converters = columns.converters()
    names = _plain(model, tuple(field.attname for field in columns.fields))
    if names is None or pre_init.has_listeners(model) or post_init.has_listeners(model):
        return [
            model.from_db(wrapper.alias, None, columns.values(row, start, converters, wrapper))
            for row in rows
        ]
    made = []
    for row in rows:
        obj = model.__new__(model)
        state = obj._state = ModelState()
        state.adding, state.db = False, wrapper.alias
        obj.__dict__.update(
            zip(names, columns.values(row, start, converters, wrapper), strict=True)
        )
        made.append(obj)
    return made


@functools.cache
def _plain(model: type[Model], names: tuple[str, ...]) -> tuple[str, ...] | None:
    """``names`` (the attributes of every concrete field of ``model``, in order), when an
    instance of ``model`` made from its values needs nothing of Model.__init__ but them set in
    its ``__dict__``: no field's attribute is set through a descriptor of its own (a foreign
    key's id is, but on a new instance that only stores it). None otherwise."""
    if names != tuple(field.attname for field in model._meta.concrete_fields):
        return None
    for name in names:
        found = inspect.getattr_static(model, name, None)
        if hasattr(type(found), "__set__") and not isinstance(found, ForeignKeyDeferredAttribute):
            return None
    return names


class Writes:
    """Statements of one change that nobody reads before the change's last one (an INSERT, an
    UPDATE), written with it: on PostgreSQL as one statement, each a data-modifying ``WITH`` of
    the last one (one round trip to the server instead of one each, issue 32); on any other
    database one after the other, in order, before it. Every statement of a ``WITH`` sees the
    database as it stood before the statement: none may read a row another one writes."""

    def __init__(self) -> None:
        self._statements: list[tuple[str, list[Any], Model | None]] = []

    def __len__(self) -> int:
        return len(self._statements)

    def insert(self, obj: Model) -> None:
        """``insert(obj)``, with the last statement: ``obj`` has its key once it is run."""
        sql, params = insert_statement(obj)
        self._statements.append((sql, params, obj))

    def update(self, objs: Sequence[Model], names: Sequence[str]) -> None:
        """``update(objs, names)``, with the last statement."""
        sql, params = update_statement(objs, names)
        self._statements.append((sql, params, None))

    def run(self, sql: str, params: Sequence[Any]) -> tuple[Any, ...]:
        """Run the statements, then ``sql`` (ending in a RETURNING clause), and return the row it
        returned."""
        wrapper = connections[DEFAULT_DB_ALIAS]
        statements, self._statements = self._statements, []
        with wrapper.cursor() as cursor:
            # Only PostgreSQL writes in a WITH (SQLite's may only read).
            if not statements or wrapper.vendor != "postgresql":
                for each, values, obj in statements:
                    cursor.execute(each, values)
                    if obj is not None:
                        inserted(obj, cursor.fetchone()[0])
                cursor.execute(sql, params)
                return cursor.fetchone()
            sql, params, made = _with(statements, sql, params)
            cursor.execute(sql, params)
            row = cursor.fetchone()
        if not made:
            return row
        for obj, pk in zip(made, row[-len(made) :], strict=True):
            inserted(obj, pk)
        return row[: -len(made)]


def _with(
    statements: list[tuple[str, list[Any], Model | None]], sql: str, params: Sequence[Any]
) -> tuple[str, list[Any], list[Model]]:
    """``statements`` as the ``WITH`` of ``sql`` (PostgreSQL), the keys of its INSERTs returned
    after its own columns."""
    parts, values, made, keys = [], [], [], []
    for index, (each, more, obj) in enumerate(statements):
        parts.append(f"w{index} AS ({each})")
        values += more
        if obj is not None:
            made.append(obj)
            keys.append(f", (SELECT {quoted(obj._meta.pk.column)} FROM w{index})")
    return f"WITH {', '.join(parts)} {sql}{''.join(keys)}", [*values, *params], made
