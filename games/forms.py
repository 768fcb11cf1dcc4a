from django import forms
from django.utils.translation import gettext_lazy as _

from .models import CLUB_NAME_MAX, PLAYER_NAME_MAX, GameNight, time_zones


class ClubForm(forms.Form):
    name = forms.CharField(label=_("Club name"), max_length=CLUB_NAME_MAX)


class ClubSettingsForm(forms.Form):
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        help_text=_("The move logs and the audit show times in this zone."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Read when the form is made, not on import: the list comes from the system's zones.
        self.fields["time_zone"].choices = [(zone, zone) for zone in time_zones()]


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Player name"), max_length=PLAYER_NAME_MAX)


class GameNightForm(forms.ModelForm):
    class Meta:
        model = GameNight
        fields = ["date", "place", "notes"]
        widgets = {
            # A date input takes and gives ISO dates whatever the page's language: rendered in
            # the locale's format ("23/11/2026" in French) it would come up empty.
            "date": forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}),
            "notes": forms.Textarea(attrs={"rows": 3}),
        }
