from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("checker", "0004_playgame_seat_bots")]

    operations = [
        migrations.AddField(
            model_name="playgame",
            name="previous",
            field=models.CharField(blank=True, db_index=True, max_length=16),
        ),
    ]
