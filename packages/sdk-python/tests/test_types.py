"""The generated TypedDicts are valid typing on this Python and carry what the resources promise."""

from __future__ import annotations

import typing

from timbre import types


def test_every_generated_typed_dict_resolves() -> None:
    typed_dicts = [value for value in vars(types).values() if isinstance(value, type) and hasattr(value, "__required_keys__")]
    assert len(typed_dicts) > 100
    for typed_dict in typed_dicts:
        typing.get_type_hints(typed_dict)


def test_the_short_names_point_at_the_shapes_the_resources_use() -> None:
    assert {"tipo", "receptor", "items"} <= types.EmitRequest.__required_keys__
    assert "precios_brutos" in types.EmitRequest.__optional_keys__
    assert {"id", "folio", "estado", "monto_total", "track_id"} <= types.Dte.__required_keys__
    assert typing.get_type_hints(types.Dte)["track_id"] == typing.Optional[str]
    assert {"items", "historial"} <= set(typing.get_type_hints(types.DteDetail))
    assert "webhook_url" in typing.get_type_hints(types.Business)
